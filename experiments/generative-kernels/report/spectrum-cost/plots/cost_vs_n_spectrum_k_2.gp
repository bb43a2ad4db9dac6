# kexp plot; run `gnuplot cost_vs_n_spectrum_k_2.gp` here to redraw cost_vs_n_spectrum_k_2.svg
set terminal svg size 1000,691 dynamic noenhanced font 'sans,15' background rgb 'white'
set output 'cost_vs_n_spectrum_k_2.svg'
set title 'time against n: spectrum k=2 on hmm'
set xlabel 'n (training points)'
set ylabel 'time: Gram or features + fit + predict (s)'
set grid
set format x '%g'
set format y '%g'
set bmargin 6
set label 100 'primal_ridge: λ = 0.1.' at screen 0.01, screen 0.0521 left font ',12'
set label 101 'A primal solver and its dual counterpart share a colour: primal solid, dual dashed. Bars: fastest to slowest measurement.' at screen 0.01, screen 0.0203 left font ',12'
set key above maxcols 2 width 2
set key spacing 1.2
set autoscale fix
set offsets graph 0.05, graph 0.05, graph 0.08, graph 0.08
set xtics ('200' 200, '400' 400, '800' 800, '1600' 1600)
set logscale x
set logscale y
set arrow 1 from 400, graph 0 to 400, graph 1 nohead dashtype 3 lc rgb '#777777'
set label 1 'n = D = 400' at 400, graph 0.960 left offset 0.5,0 font ',12' textcolor rgb '#222222'
$line0 << EOD
200 0.036424492833333336 0.019312657 0.071825562
400 0.08495817950000001 0.076791623 0.097883123
800 0.4173988798333334 0.345312394 0.46689221300000006
1600 1.8513230263333333 1.808400873 1.8782368870000001
EOD
$line1 << EOD
200 0.002594984333333333 0.001721902 0.020358871
400 0.0033968863333333336 0.00297714 0.0052708519999999995
800 0.007359841999999999 0.0054520390000000005 0.019991559
1600 0.019356744333333332 0.010522156 0.030560885
EOD
plot $line0 using 1:2:3:4 with yerrorlines lw 1.5 pt 4 ps 0.8 dashtype 2 lc rgb '#0072B2' title 'kernel_ridge_classifier (dual)', \
     $line1 using 1:2:3:4 with yerrorlines lw 1.5 pt 6 ps 0.8 dashtype 1 lc rgb '#0072B2' title 'primal_ridge (primal)'
