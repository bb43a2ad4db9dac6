# kexp plot; run `gnuplot cost_vs_n_gaussian.gp` here to redraw cost_vs_n_gaussian.svg
set terminal svg size 1000,686 dynamic noenhanced font 'sans,15' background rgb 'white'
set output 'cost_vs_n_gaussian.svg'
set title 'time against n: gaussian on friedman1'
set xlabel 'n (training points)'
set ylabel 'time: Gram or features + fit + predict (s)'
set grid
set format x '%g'
set format y '%g'
set bmargin 7
set label 100 'cg_ridge: iterations = 20, λ = 0.1, tolerance = 1e-06.' at screen 0.01, screen 0.0845 left font ',12'
set label 101 'kernel_ridge: λ = 0.1.' at screen 0.01, screen 0.0525 left font ',12'
set label 102 'Bars: fastest to slowest measurement.' at screen 0.01, screen 0.0204 left font ',12'
set key outside right top vertical
set key spacing 1.2
set autoscale fix
set offsets graph 0.05, graph 0.05, graph 0.08, graph 0.08
set xtics ('1000' 1000, '4000' 4000, '16000' 16000, '40000' 40000, '100000' 100000)
set logscale x
set logscale y
$line0 << EOD
1000 0.041168757 0.040796393 0.041575862
4000 0.618210823 0.6181709169999999 0.618295034
16000 9.363802163 9.363802163 9.363802163
40000 61.381703005 61.381703005 61.381703005
100000 372.423440888 372.423440888 372.423440888
EOD
$line1 << EOD
1000 0.008648966 0.0081421 0.025628188000000003
4000 0.578706351 0.578643635 0.580336178
16000 21.013007815 21.012710170000002 21.01330546
40000 272.20152343300003 272.20152343300003 272.20152343300003
EOD
plot $line0 using 1:2:3:4 with yerrorlines lw 1.5 pt 4 ps 0.8 dashtype 2 lc rgb '#0072B2' title 'cg_ridge (dual)', \
     $line1 using 1:2:3:4 with yerrorlines lw 1.5 pt 6 ps 0.8 dashtype 2 lc rgb '#D55E00' title 'kernel_ridge (dual)'
