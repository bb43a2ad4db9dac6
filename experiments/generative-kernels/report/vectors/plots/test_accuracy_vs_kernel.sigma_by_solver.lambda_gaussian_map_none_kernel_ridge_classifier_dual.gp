# kexp plot; run `gnuplot test_accuracy_vs_kernel.sigma_by_solver.lambda_gaussian_map_none_kernel_ridge_classifier_dual.gp` here to redraw test_accuracy_vs_kernel.sigma_by_solver.lambda_gaussian_map_none_kernel_ridge_classifier_dual.svg
set terminal svg size 1000,642 dynamic noenhanced font 'sans,15' background rgb 'white'
set output 'test_accuracy_vs_kernel.sigma_by_solver.lambda_gaussian_map_none_kernel_ridge_classifier_dual.svg'
set title 'gaussian map=none · kernel_ridge_classifier (dual): test accuracy against σ, a line per λ'
set xlabel 'σ (kernel.sigma)'
set ylabel 'test accuracy'
set grid
set format x '%g'
set format y '%g'
set bmargin 5
set label 100 'Points: mean over up to 3 runs (the repeats); bars: ± one standard deviation.' at screen 0.01, screen 0.0218 left font ',12'
set key outside right top vertical
set key spacing 1.2
set autoscale fix
set offsets graph 0.05, graph 0.05, graph 0.08, graph 0.08
set xtics ('0.1' 0.1, '0.3' 0.3, '1' 1, '3' 3)
set logscale x
$line0 << EOD
0.1 0.9861111111111112 0.9733817341806783 0.998840488041544
0.3 0.9888888888888889 0.9761595119584561 1.0016182658193218
1 0.9972222222222222 0.9924109699789754 1.002033474465469
3 0.9944444444444445 0.9896331922011976 0.9992556966876913
EOD
$line1 << EOD
0.1 0.9888888888888889 0.9761595119584561 1.0016182658193218
0.3 0.9888888888888889 0.9761595119584561 1.0016182658193218
1 1 1 1
3 0.9944444444444445 0.9896331922011976 0.9992556966876913
EOD
$line2 << EOD
0.1 0.9888888888888889 0.9761595119584561 1.0016182658193218
0.3 0.9944444444444445 0.9896331922011976 0.9992556966876913
1 0.9972222222222222 0.9924109699789754 1.002033474465469
3 0.9944444444444445 0.9896331922011976 0.9992556966876913
EOD
$line3 << EOD
0.1 0.9888888888888889 0.9761595119584561 1.0016182658193218
0.3 0.9972222222222222 0.9924109699789754 1.002033474465469
1 0.9972222222222222 0.9924109699789754 1.002033474465469
3 0.9805555555555555 0.9537676367750195 1.0073434743360916
EOD
plot $line0 using 1:2:3:4 with yerrorlines lw 1.5 pt 4 ps 0.8 dashtype 1 lc rgb '#0072B2' title 'λ = 0.001', \
     $line1 using 1:2:3:4 with yerrorlines lw 1.5 pt 6 ps 0.8 dashtype 1 lc rgb '#D55E00' title 'λ = 0.01', \
     $line2 using 1:2:3:4 with yerrorlines lw 1.5 pt 8 ps 0.8 dashtype 1 lc rgb '#009E73' title 'λ = 0.1', \
     $line3 using 1:2:3:4 with yerrorlines lw 1.5 pt 10 ps 0.8 dashtype 1 lc rgb '#CC79A7' title 'λ = 1'
