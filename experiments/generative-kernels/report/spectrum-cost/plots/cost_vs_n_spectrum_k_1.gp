# kexp plot; run `gnuplot cost_vs_n_spectrum_k_1.gp` here to redraw cost_vs_n_spectrum_k_1.svg
set terminal svg size 1000,713 dynamic noenhanced font 'sans,15' background rgb 'white'
set output 'cost_vs_n_spectrum_k_1.svg'
set title 'time against n: spectrum k=1 on hmm'
set xlabel 'n (training points)'
set ylabel 'time: Gram or features + fit + predict (s)'
set grid
set format x '%g'
set format y '%g'
set bmargin 7
set label 100 'primal_ridge: λ = 0.1.' at screen 0.01, screen 0.0813 left font ',12'
set label 101 'A primal solver and its dual counterpart share a colour: primal solid, dual dashed. Bars: fastest to slowest measurement.' at screen 0.01, screen 0.0505 left font ',12'
set label 102 'The primal map''s dimension D = 20 is below every n drawn.' at screen 0.01, screen 0.0196 left font ',12'
set key above maxcols 2 width 2
set key spacing 1.2
set autoscale fix
set offsets graph 0.05, graph 0.05, graph 0.08, graph 0.08
set xtics ('200' 200, '400' 400, '800' 800, '1600' 1600)
set logscale x
set logscale y
$line0 << EOD
200 0.0020253703333333335 0.001822916 0.029604377
400 0.005685554 0.005207263 0.012713358000000001
800 0.025488167000000003 0.016764538 0.034687216
1600 0.1143073995 0.107351172 0.12379767800000001
EOD
$line1 << EOD
200 0.0006418379999999999 0.000619872 0.005031426999999999
400 0.0013474543333333335 0.0012828269999999998 0.004108044999999999
800 0.0026993129999999996 0.002596644 0.006907003
1600 0.008843265666666668 0.0052373820000000005 0.013731319
EOD
plot $line0 using 1:2:3:4 with yerrorlines lw 1.5 pt 4 ps 0.8 dashtype 2 lc rgb '#0072B2' title 'kernel_ridge_classifier (dual)', \
     $line1 using 1:2:3:4 with yerrorlines lw 1.5 pt 6 ps 0.8 dashtype 1 lc rgb '#0072B2' title 'primal_ridge (primal)'
