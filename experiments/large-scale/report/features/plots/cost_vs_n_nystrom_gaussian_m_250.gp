# kexp plot; run `gnuplot cost_vs_n_nystrom_gaussian_m_250.gp` here to redraw cost_vs_n_nystrom_gaussian_m_250.svg
set terminal svg size 1000,686 dynamic noenhanced font 'sans,15' background rgb 'white'
set output 'cost_vs_n_nystrom_gaussian_m_250.svg'
set title 'time against n: nystrom(gaussian) m=250 on friedman1'
set xlabel 'n (training points)'
set ylabel 'time: Gram or features + fit + predict (s)'
set grid
set format x '%g'
set format y '%g'
set bmargin 7
set label 100 'primal_ridge: lambda=0.1' at screen 0.01, screen 0.0845 left font ',12'
set label 101 'Bars: fastest to slowest measurement.' at screen 0.01, screen 0.0525 left font ',12'
set label 102 'The primal map''s dimension D = 250 is below every n drawn.' at screen 0.01, screen 0.0204 left font ',12'
set key outside right top vertical
set key spacing 1.2
set autoscale fix
set offsets graph 0.05, graph 0.05, graph 0.08, graph 0.08
set logscale x
set logscale y
$line0 << EOD
1000 0.009530071 0.009388802000000002 0.018126824
4000 0.044488055500000005 0.039673821 0.047606227
16000 0.1362698545 0.134580733 0.141898358
40000 0.2789645385 0.277364909 0.280559993
100000 0.657758937 0.657630253 0.658452629
1000000 7.019212046 7.018654165 7.019939186
EOD
plot $line0 using 1:2:3:4 with yerrorlines lw 1.5 pt 4 ps 0.8 dashtype 1 lc rgb '#0072B2' title 'primal_ridge (primal)'
